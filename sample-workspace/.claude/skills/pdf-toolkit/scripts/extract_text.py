"""extract text for PDF files."""
import sys

print("extract_text", sys.argv[1:])
