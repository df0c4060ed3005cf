"""rotate for PDF files."""
import sys

print("rotate", sys.argv[1:])
