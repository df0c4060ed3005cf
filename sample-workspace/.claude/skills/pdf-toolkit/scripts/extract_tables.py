"""extract tables for PDF files."""
import sys

print("extract_tables", sys.argv[1:])
