#!/usr/bin/env python3
"""The README cannot drift from the compiled examples:

- every code block marked `<!-- snippet: FILE -->` must appear, line for line
  (indentation aside), in FILE;
- the block marked `<!-- program: FILE -->` must be FILE whole, byte for byte, and
  end within the README's first screen (FIRST_SCREEN lines): the first program a
  reader meets is one a test compiles and runs (examples.against_mock);
- the section "Errors" names every exception type of include/mgnify."""
import pathlib
import re
import sys

FIRST_SCREEN = 50

root = pathlib.Path(sys.argv[1])
readme = (root / "README.md").read_text()
failures = 0

pattern = re.compile(r"<!-- snippet: (\S+) -->\n```cpp\n(.*?)```", re.S)
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
    failures += 1

programs = list(re.finditer(r"<!-- program: (\S+) -->\n```cpp\n(.*?)```", readme, re.S))
if len(programs) != 1:
    print(f"README.md must show exactly one whole program, found {len(programs)}", file=sys.stderr)
    failures += 1
for match in programs:
    source, block = match.group(1), match.group(2)
    text = (root / source).read_text()
    if block != text:
        failures += 1
        print(f"README's program differs from {source}; it must be the file whole", file=sys.stderr)
    last_line = readme.count("\n", 0, match.end()) + 1
    if last_line > FIRST_SCREEN:
        failures += 1
        print(f"README's program ends on line {last_line}, after its first screen "
              f"({FIRST_SCREEN} lines)", file=sys.stderr)

# The error table names every exception type the SDK defines (a class derived from
# mgnify::Error, directly or through another of them).
errors_section = re.search(r"\n## Errors\n(.*?)\n## ", readme, re.S)
derived = {}
for header in (root / "include").rglob("*.hpp"):
    for name, base in re.findall(r"^class (\w+)(?: final)? : public (\w+) \{", header.read_text(), re.M):
        derived[name] = base
error_types = {"Error"}
while True:
    more = {name for name, base in derived.items() if base in error_types} - error_types
    if not more:
        break
    error_types |= more
if not errors_section:
    print("README.md has no '## Errors' section", file=sys.stderr)
    failures += 1
else:
    for name in sorted(error_types - {"Error"}):
        if f"`{name}`" not in errors_section.group(1):
            failures += 1
            print(f"README's error table does not name {name}", file=sys.stderr)

print(f"{count} README snippets, {len(programs)} whole program and "
      f"{len(error_types) - 1} error types checked")
sys.exit(1 if failures else 0)
