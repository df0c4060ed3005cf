#!/usr/bin/env bash
# Draws images/icon.png (256x256, the Marketplace wants >= 128x128) with ImageMagick:
# a SKILL.md page (frontmatter fences and lines) with a check mark badge.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p images
convert -depth 8 -size 256x256 xc:none \
  -fill '#1f3a5f' -draw 'roundrectangle 8,8 248,248 40,40' \
  -fill '#f4f1ea' -draw 'polygon 64,40 160,40 196,76 196,216 64,216' \
  -fill '#c9c2b2' -draw 'polygon 160,40 160,76 196,76' \
  -fill '#8a7f6a' -draw 'rectangle 82,70 118,78' -draw 'rectangle 82,122 118,130' \
  -fill '#2e6fb4' -draw 'rectangle 82,88 176,96' -draw 'rectangle 82,105 160,113' \
  -fill '#9aa7b5' -draw 'rectangle 82,148 176,154' -draw 'rectangle 82,164 168,170' -draw 'rectangle 82,180 140,186' \
  -fill '#2f9e5b' -draw 'circle 184,188 184,148' \
  -stroke '#ffffff' -strokewidth 13 -fill none -draw 'stroke-linecap round stroke-linejoin round polyline 166,188 179,201 203,173' \
  images/icon.png
echo "wrote images/icon.png"
