"""Fixes: applying them, and the edits every fix may need besides its own.

- `apply`: edits to text, compatible fixes per pass, the loop to a fixed point (rule-independent).
- `imports`: where a fix puts the imports it needs (read at analysis time, edits at link time).
- `materialise`: a rule's fix made concrete in its module at link time (names filled, imports
  added), and withheld where it would change what a caller or the client gets.
- `unused_imports`: removing the imports the fixes of a file left unused.

Nothing is imported here, so that the analysis can use `imports` without loading the fix loop.
"""
