#!/usr/bin/env python3
"""Doxygen input filter for the three client headers (docs/Doxyfile, FILTER_PATTERNS).

Each client is a class template, BasicV2Client<> say, whose parameter only delays the
compilation of its member bodies, and the class a program names, V2Client, derives from
it and adds nothing. The reference should show V2Client with its constructors and
members under that name, so Doxygen is shown the template as the class itself:

- the `template <class = void>` line before `class BasicXClient` is dropped;
- BasicXClient (with `<>`, `<void>` or `<D>`) is renamed XClient everywhere, and the
  `template <class D>` head of a member defined outside the class is dropped;
- the derived `class XClient : public BasicXClient<> {...};` and the explicit
  instantiation `extern template class ... BasicXClient<void>;` are dropped.

Dropped lines become empty lines, so that line numbers stay those of the header."""
import re
import sys

CLIENT = r"Basic(LegacyClient|V2Client|ProteinClient)"

lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
out = []
in_derived = False
for i, line in enumerate(lines):
    following = lines[i + 1] if i + 1 < len(lines) else ""
    if in_derived:
        out.append("")
        if line.strip() == "};":
            in_derived = False
        continue
    if line.strip() == "template <class = void>" and re.match(r"class " + CLIENT + r"\b", following):
        out.append("")
        continue
    # The template head of a member defined out of the class (impl/*.hpp), which may be
    # followed by the member template's own head.
    head = re.match(r"template <class (\w+)>$", line)
    if head and re.search(CLIENT + "<" + head.group(1) + ">", " ".join(lines[i + 1:i + 3])):
        out.append("")
        continue
    if re.match(r"class (\w+) : public " + CLIENT + r"<> \{$", line):
        out.append("")
        in_derived = True
        continue
    if re.match(r"extern template class \w+ " + CLIENT + r"<void>;$", line.strip()):
        out.append("")
        continue
    out.append(re.sub(CLIENT + r"(<\w*>)?", r"\1", line))
sys.stdout.write("\n".join(out))
