"""Print merged changes between two refs, one per line."""
import subprocess
import sys

start = sys.argv[1] if len(sys.argv) > 1 else subprocess.check_output(["git", "describe", "--tags", "--abbrev=0"], text=True).strip()
end = sys.argv[2] if len(sys.argv) > 2 else "HEAD"
print(subprocess.check_output(["git", "log", "--merges", "--format=%s", f"{start}..{end}"], text=True))
