"""watermark for PDF files."""
import sys

print("watermark", sys.argv[1:])
