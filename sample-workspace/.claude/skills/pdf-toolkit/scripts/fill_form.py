"""fill form for PDF files."""
import sys

print("fill_form", sys.argv[1:])
