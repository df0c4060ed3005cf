"""OpenCode's cut of a long tool result (render.opencode.truncate), at its edges. The format is
the release's (capture cases long-body and many-lines); these pin where the cut falls."""

from skill_lsp.capture.expect import cut_alike
from skill_lsp.engine.render.opencode import MAX_BYTES, MAX_LINES, truncate

SAVED = "/h/.local/share/opencode/tool-output/tool_<id>"


def _cut(text: str) -> tuple[str, str]:
    out = truncate(text, SAVED)
    kept, sep, rest = out.partition("\n\n...")
    assert sep, "not cut"
    assert rest.endswith(f"Full output saved to: {SAVED}\nUse the Task tool to have explore agent process this file "
                         "with Grep and Read (with offset/limit). Do NOT read the full file yourself - delegate to "
                         "save context.")
    return kept, rest.partition(" truncated...")[0]


def test_at_the_limits_nothing_is_cut() -> None:
    lines = "\n".join(["x"] * MAX_LINES)
    assert truncate(lines, SAVED) == lines
    exact = "a" * MAX_BYTES
    assert truncate(exact, SAVED) == exact
    assert truncate("", SAVED) == ""


def test_one_line_more_is_cut_by_lines() -> None:
    kept, cut = _cut("\n".join(["x"] * (MAX_LINES + 1)))
    assert kept == "\n".join(["x"] * MAX_LINES) and cut == "1 lines"
    # A final line feed makes an empty last line, which counts.
    kept, cut = _cut("\n".join(["x"] * MAX_LINES) + "\n")
    assert cut == "1 lines"


def test_bytes_are_utf8_and_the_line_feeds_between_lines_count() -> None:
    line = "é" * 100  # 200 bytes
    text = "\n".join([line] * 300)  # 300 * 200 + 299 = 60,299 bytes
    kept, cut = _cut(text)
    n = kept.count("\n") + 1
    assert n == 254 and len(kept.encode()) == 254 * 200 + 253  # a 255th line would pass 51,200 (201 bytes a line)
    assert cut == f"{len(text.encode()) - len(kept.encode())} bytes"


def test_a_first_line_past_the_bytes_leaves_nothing() -> None:
    kept, cut = _cut("a" * (MAX_BYTES + 1) + "\nb")
    assert kept == "" and cut == f"{MAX_BYTES + 3} bytes"


def test_bytes_win_over_lines_when_both_are_past() -> None:
    text = "\n".join(["y" * 100] * 2500)
    kept, cut = _cut(text)
    assert cut.endswith(" bytes") and kept.count("\n") + 1 < MAX_LINES


def test_a_lone_surrogate_counts_as_three_bytes() -> None:
    text = "\ud800" * 17067  # 51,201 bytes as Node writes it (U+FFFD each)
    kept, cut = _cut(text)
    assert kept == "" and cut == "51201 bytes"
    assert truncate("\ud800" * 17066, SAVED) == "\ud800" * 17066


def test_cut_results_alike_only_where_directory_order_decides() -> None:
    body = "<skill_content>\nbody\n\nBase directory\n<skill_files>\n"
    tail = "\n\n...40 bytes truncated...\n\nhint"
    a = body + "<file>/s/a</file>" + tail
    b = body + "<file>/s/b</file>" + tail.replace("40", "41")
    assert cut_alike(a, b, eligible=3, limit=10)  # the cut falls in the file list
    same_head = "<skill_content>\nbody" + tail
    other_count = "<skill_content>\nbody" + tail.replace("40", "43")
    assert cut_alike(same_head, other_count, eligible=11, limit=10)  # which files were sampled
    assert not cut_alike(same_head, other_count, eligible=10, limit=10)  # every file listed: same total
    assert not cut_alike("<skill_content>\nbodY" + tail, same_head, eligible=11, limit=10)
    assert not cut_alike(same_head, same_head.replace("hint", "other"), eligible=11, limit=10)
