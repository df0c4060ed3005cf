"""flatten for PDF files."""
import sys

print("flatten", sys.argv[1:])
