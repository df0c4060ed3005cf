"""SPDX ids: the common ones answered without reading the list are in the list."""

from __future__ import annotations

from skill_lsp.engine import spdx


def test_the_common_ids_are_spdx_ids_as_spelled() -> None:
    assert spdx.COMMON <= set(spdx.ids())


def test_ids_match_case_insensitively_with_or_later_and_license_refs() -> None:
    assert spdx.is_spdx("MIT") and spdx.is_spdx("mit") and spdx.is_spdx(" Apache-2.0 ")
    assert spdx.is_spdx("GPL-2.0+") and spdx.is_spdx("LicenseRef-Acme")
    assert not spdx.is_spdx("MIT license") and not spdx.is_spdx("Proprietary")
