#!/usr/bin/env python3
"""Every README code block marked `<!-- snippet: FILE -->` must appear, line for line
(indentation aside), in FILE, so the README cannot drift from the compiled examples."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
readme = (root / "README.md").read_text()
pattern = re.compile(r"<!-- snippet: (\S+) -->\n```cpp\n(.*?)```", re.S)
failures = 0
count = 0
for source, block in pattern.findall(readme):
    count += 1
    # Blank lines are layout, not content: compare the non-blank lines only.
    wanted = [line.strip() for line in block.splitlines() if line.strip()]
    lines = [line.strip() for line in (root / source).read_text().splitlines() if line.strip()]
    found = any(lines[i:i + len(wanted)] == wanted for i in range(len(lines) - len(wanted) + 1))
    if not found:
        failures += 1
        print(f"README snippet not found in {source}:\n" + "\n".join(wanted), file=sys.stderr)
if count == 0:
    print("no snippets found in README.md", file=sys.stderr)
    sys.exit(1)
print(f"{count} README snippets match their examples")
sys.exit(1 if failures else 0)
