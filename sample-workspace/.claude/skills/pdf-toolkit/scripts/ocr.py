"""ocr for PDF files."""
import sys

print("ocr", sys.argv[1:])
