"""An error message as the author wrote it, minus the exception's text, for fixes to write back.

A message is the string literals of one expression: a plain string, an f-string, or several of
them concatenated implicitly (`f"... e.g. " f"...; got error: {e}"`, one per line). Fixes take out
the placeholders that carry a caught exception's text, trim what introduced them (": ", "; got
error: ", a bracket pair), and write the rest back in the author's words, quotes and line layout:
as an f-string for the raised error, and with `%s` arguments for a logging call.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from typing import Callable

import libcst as cst

from mcp_lint.lazy_re import lazy_compile
from mcp_lint.vocabulary import FAILURE_ANYWHERE, FAILURE_OPENING

# What introduces a removed placeholder: spaces, ": ", " - ", "; ", "=", escaped line breaks.
# Full-width punctuation too: a message written in another script ends its label with "：".
_SEPARATORS = lazy_compile(r"(?:[\s:;,\-–—|=：；，、]|\\n|\\t)+$")
_LEADING_SEPARATORS = lazy_compile(r"^(?:[\s:;,\-–—|=：；，、]|\\n|\\t)+")
# The full stop that closed the removed text (`... credentials. Error: {e}. Run setup ...`).
_LEADING_STOP = lazy_compile(r"^[.。](?:\s+|\\n|$)")
_SENTENCE_ENDS = (".", "!", "?", "。", "！", "？")
# A label left without its value: "...; got error", "Details", "failed with exception". A label
# word after a plain space is the author's phrase ("Could not parse message: {e}") and stays.
_LABEL = r"(?:(?:the|an?|original|underlying|raw|error|exception)\s+)*(?:error|exception|exc|reason|details?|cause|message|msg|traceback)s?$"
_DANGLING_LABEL = lazy_compile(rf"(?i)(?:^|(?<=[(\[])|[;,.]\s*(?:got\s+|with\s+)?|\s(?:got|with)\s+){_LABEL}")
# A leading "Error:" label, also in markdown emphasis or after a warning sign ("**Error:** ",
# "**Error**: ", "❌ Error: "): what a raised message no longer needs to say.
ERROR_PREFIX = lazy_compile(
    r"^\s*(?:[\u274c\u26a0\U0001f6ab]\ufe0f?\s*)?(?:\*\*|__)?\[?(?:error|err)\]?(?:\*\*|__)?\s*(?::|-|–|—)\s*(?:\*\*|__)?\s*", re.I
)
# A phrase that names an activity, not its failure ("getting holder info for {}"): without its
# "Error:" label it reads as a progress note. ("Missing", "Nothing" and the like say the failure.)
_ACTIVITY = lazy_compile(
    r"(?i)^(?!(?:missing|nothing|something|anything|during|pending|remaining|existing|string|warning|incoming|outgoing)\b)[a-z]+ing\b"
)
# The plain label, which can stay as the sentence's first word ("Error: getting X" -> "Error getting X").
_PLAIN_LABEL = lazy_compile(r"(?i)^\s*(error)\s*(?::|-|–|—)\s*$")


def label_replacement(raw: str, words: str | None = None) -> tuple[int, str] | None:
    """What replaces the leading "Error:" label of `raw` (a message's first literal), as (the
    label's length, the new text): "" when the rest says what failed ("Note 3 not found"); the
    label's word alone when the rest names only an activity ("Error: getting X for {}" ->
    "Error getting X for {}": the author's words, still saying it failed). None when there is no
    label, or it is one that cannot become a word of the sentence (markdown, a warning sign).
    `words` is the whole message as read, when more than `raw` follows."""
    match = ERROR_PREFIX.match(raw)
    if match is None:
        return None
    rest = raw[match.end() :]
    said = rest if words is None else ERROR_PREFIX.sub("", words, count=1)
    if _ACTIVITY.match(rest) and not FAILURE_ANYWHERE.search(said) and not FAILURE_OPENING.match(said):
        plain = _PLAIN_LABEL.match(match.group())
        return (match.end(), plain.group(1) + " ") if plain is not None else None
    return match.end(), ""


_OPENERS = {"(": ")", "[": "]", "{": "}", "'": "'", '"': '"'}
# Format specs that mean the same in printf style (`{x:.2f}` -> `%.2f`).
_PRINTF_SPEC = lazy_compile(r"^\d*(?:\.\d+)?[dfeEgGxXo]?$")
# One field of a `%` format (`%s`, `%r`, `%.2f`, `%%`); named fields are not read.
_PRINTF_FIELD = lazy_compile(r"%%|%(?P<spec>\d*(?:\.\d+)?)(?P<kind>[sradifeEgGxXo])")


@dataclass
class Text:
    raw: str  # source text between the quotes, escapes kept
    braces_escaped: bool  # `{{`/`}}` (written in an f-string)
    # Closes the parentheses a fix added after what failed (`(path: {path}`, then `)`): a
    # further detail goes inside them, not into a second pair.
    closes_details: bool = False


@dataclass
class Placeholder:
    source: str  # the expression's source
    conversion: str | None = None  # "r", "s", "a"
    spec: str | None = None  # format spec source, e.g. ".2f"
    node: cst.BaseExpression | None = None


Piece = Text | Placeholder


@dataclass
class Part:
    """One string literal of the message."""

    prefix: str  # string prefix without "f" ("", "r", "u")
    quote: str
    pieces: list[Piece] = field(default_factory=list)

    def has_placeholder(self) -> bool:
        return any(isinstance(p, Placeholder) for p in self.pieces)

    def is_empty(self) -> bool:
        return all(isinstance(p, Text) and not p.raw for p in self.pieces)


@dataclass
class Message:
    parts: list[Part]
    multiline: bool = False  # the literals stood on lines of their own

    # -- reading ---------------------------------------------------------------------------
    @classmethod
    def read(cls, expr: cst.BaseExpression, line_of: Callable[[cst.CSTNode], int], code: Callable[[cst.CSTNode], str]) -> Message | None:
        """The message of a string expression; None for anything but string literals.

        `line_of(node)` is the row a node starts on, `code(node)` its source (both from the
        file's context); the layout is read from where the literals start."""
        parts: list[Part] = []
        if not _collect(expr, parts, code):
            return None
        lines = {line_of(p) for p in _literals(expr)}
        return cls(parts, multiline=len(lines) > 1)

    @classmethod
    def read_printf(cls, template: cst.BaseExpression, arguments: list[cst.BaseExpression], code: Callable[[cst.CSTNode], str]) -> Message | None:
        """The message of a logging call's `%` format and arguments (`"lookup of %s failed",
        item_id` reads as `f"lookup of {item_id} failed"`); None for other shapes."""
        if type(template) is not cst.SimpleString or "b" in template.prefix.lower() or len(template.quote) != 1:
            return None
        if not arguments:
            return cls([Part(template.prefix, template.quote, [Text(template.raw_value, False)])])
        pieces: list[Piece] = []
        position = 0
        remaining = list(arguments)
        for match in _PRINTF_FIELD.finditer(template.raw_value):
            pieces.append(Text(template.raw_value[position : match.start()], False))
            position = match.end()
            if match.group(0) == "%%":
                pieces.append(Text("%", False))
                continue
            if not remaining:
                return None
            value = remaining.pop(0)
            source = code(value).strip()
            if template.quote in source or "\\" in source or "\n" in source:
                return None
            kind, spec = match.group("kind"), match.group("spec")
            conversion = kind if kind in {"r", "a"} else None
            pieces.append(Placeholder(source, conversion, (spec + kind) if spec and kind not in "sra" else None, value))
        if remaining:
            return None  # more arguments than fields: not a plain format
        pieces.append(Text(template.raw_value[position:], False))
        return cls([Part(template.prefix, template.quote, [p for p in pieces if not isinstance(p, Text) or p.raw])])

    # -- editing ---------------------------------------------------------------------------
    def remove(self, carries_exception: Callable[[cst.BaseExpression], bool]) -> bool:
        """Take out the placeholders `carries_exception` names, with what introduced them.
        True when something was removed."""
        removed = False
        flat = [(part, piece) for part in self.parts for piece in part.pieces]
        for index, (part, piece) in enumerate(flat):
            if not isinstance(piece, Placeholder) or piece.node is None or not carries_exception(piece.node):
                continue
            removed = True
            before = _text_before(flat, index)
            after = _text_after(flat, index)
            part.pieces[part.pieces.index(piece)] = Text("", True)
            _trim_around(before, after)
            if after is not None and _ends_a_sentence(flat[:index]):
                after.raw = _LEADING_STOP.sub("", after.raw)
        if removed:
            self._drop_empty_parts()
            self._trim_end()
        return removed

    def replace_ending(self, carries_exception: Callable[[cst.BaseExpression], bool], source: str) -> bool:
        """`Invalid timezone: {e}` -> `Invalid timezone: {timezone_name}`: the one placeholder
        carrying the exception, when it ends the message, becomes `source`. True when it did."""
        pieces = [(part, piece) for part in self.parts for piece in part.pieces if not (isinstance(piece, Text) and not piece.raw)]
        carrying = [(part, piece) for part, piece in pieces if isinstance(piece, Placeholder) and piece.node is not None and carries_exception(piece.node)]
        if len(carrying) != 1 or not pieces or pieces[-1][1] is not carrying[0][1]:
            return False
        part, piece = carrying[0]
        index = next(i for i, p in enumerate(part.pieces) if p is piece)
        part.pieces[index] = Placeholder(source)
        return True

    def drop_error_prefix(self) -> None:
        """`Error: note 3 not found` -> `Note 3 not found`: raised as an error, the message needs
        no label saying so (clients show it as one, mcp even prefixes "Error executing tool")."""
        if not self.parts or not self.parts[0].pieces or not isinstance(self.parts[0].pieces[0], Text):
            return
        first = self.parts[0].pieces[0]
        replacement = label_replacement(first.raw, self.words())
        if replacement is None:
            return
        length, label = replacement
        rest = first.raw[length:]
        if not (rest or len(self.parts[0].pieces) > 1):
            return
        first.raw = label + rest if label else capitalized(rest)

    def append_context(self, items: list[tuple[str, str]]) -> None:
        """` (page_id: {page_id}, version: {version})`: values the old error result carried."""
        if not self.parts:
            return
        last = self.parts[-1]
        # An expression with the literal's quote or a backslash cannot go inside it before 3.12
        # (`item["id"]` is written `item['id']` inside a double-quoted literal).
        items = [(label, _requoted(expr, last.quote[0])) for label, expr in items]
        items = [(label, expr) for label, expr in items if last.quote[0] not in expr and "\\" not in expr]
        if not items:
            return
        # Inside the sentence they belong to: "Note 3 exists (note_id: {id})." keeps its full stop last.
        end = last.pieces[-1] if last.pieces and isinstance(last.pieces[-1], Text) else None
        stop = "." if end is not None and end.raw.endswith(".") and not end.raw.endswith("..") else ""
        if stop:
            end.raw = end.raw[:-1]
        for position, (label, expr) in enumerate(items):
            opener = " (" if position == 0 else ", "
            last.pieces.append(Text(f"{opener}{label}: ", True))
            last.pieces.append(Placeholder(expr))
        # Further details (the status, the error's class) go inside these parentheses, not into
        # a second pair beside them ("(page_id: {page_id}) (HTTP 404)").
        last.pieces.append(Text(")" + stop, True, closes_details=True))

    def add_sentence(self, sentence: Message) -> bool:
        """`sentence` (the author's advice) after the message as the next sentence, in its own
        layout: one literal a line where the author wrote it so (`("Ask the user. " "Then
        retry.")` on two lines), else inside the last literal. False, and nothing changed, when
        a literal's quote or prefix differs from the message's (its escapes would not read the
        same there)."""
        if not self.parts or not sentence.parts:
            return False
        last = self.parts[-1]
        if any(part.quote != last.quote or part.prefix.lower() != last.prefix.lower() for part in sentence.parts):
            return False
        if not sentence.multiline:
            append_sentence(last.pieces, [piece for part in sentence.parts for piece in part.pieces])
            return True
        first, *rest = [Part(part.prefix, part.quote, list(part.pieces)) for part in sentence.parts]
        # The separator ends the message's last literal, as the author ends a line before the next.
        kept = len(last.pieces)
        joined = list(last.pieces)
        append_sentence(joined, list(first.pieces))  # adds one separator, then the sentence
        last.pieces, first.pieces = joined[: kept + 1], joined[kept + 1 :]
        self.parts.extend([first, *rest])
        self.multiline = True
        return True

    def _drop_empty_parts(self) -> None:
        kept = [part for part in self.parts if not part.is_empty()]
        self.parts = kept

    def _trim_end(self) -> None:
        while self.parts:
            last = self.parts[-1]
            while last.pieces and isinstance(last.pieces[-1], Text):
                text = last.pieces[-1]
                text.raw = _SEPARATORS.sub("", text.raw)
                if text.raw:
                    break
                last.pieces.pop()
            if last.pieces:
                return
            self.parts.pop()

    # -- writing ---------------------------------------------------------------------------
    def words(self) -> str:
        """The text a reader sees, placeholders as {} (for judging what is left)."""
        out = []
        for part in self.parts:
            for piece in part.pieces:
                out.append(_unescape(piece.raw, piece.braces_escaped) if isinstance(piece, Text) else "{}")
        return "".join(out)

    def as_fstring(self, joiner: str) -> str:
        """The message for an exception: an f-string where it has placeholders, literals joined by
        `joiner` (the line break and indent of a multi-line layout, or a space)."""
        only = self.parts[0].pieces if len(self.parts) == 1 else []
        if len(only) == 1 and isinstance(only[0], Placeholder) and not only[0].conversion and not only[0].spec:
            return only[0].source  # f"{error}" is `error`: the exception classes str() it anyway
        rendered = []
        for part in self.parts if "\n" in joiner else _one_literal(self.parts):
            if part.has_placeholder():
                body = "".join(
                    _escape(p.raw, p.braces_escaped) if isinstance(p, Text) else _placeholder_code(p) for p in part.pieces
                )
                rendered.append(f"f{part.prefix}{part.quote}{body}{part.quote}")
            else:
                body = "".join(_unescape(p.raw, p.braces_escaped) for p in part.pieces if isinstance(p, Text))
                rendered.append(f"{part.prefix}{part.quote}{body}{part.quote}")
        return joiner.join(rendered)

    def as_braces(self, joiner: str) -> tuple[str, list[str]]:
        """The message for loguru, which formats with `str.format`: `{}` fields and their
        arguments, literal braces doubled (`logger.exception("Lookup of {} failed", key)`)."""
        arguments: list[str] = []
        rendered = []
        for part in self.parts if "\n" in joiner else _one_literal(self.parts):
            text = ""
            for piece in part.pieces:
                if isinstance(piece, Text):
                    text += _unescape(piece.raw, piece.braces_escaped).replace("{", "{{").replace("}", "}}")
                    continue
                conversion = f"!{piece.conversion}" if piece.conversion else ""
                text += "{" + conversion + (f":{piece.spec}" if piece.spec else "") + "}"
                arguments.append(piece.source)
            rendered.append(f"{part.prefix.replace('f', '').replace('F', '')}{part.quote}{text}{part.quote}")
        return joiner.join(rendered), arguments

    def as_logging(self, joiner: str) -> tuple[str, list[str]] | None:
        """The message for a logging call: a `%s` format and its arguments (None when a format
        spec has no printf equivalent)."""
        arguments: list[str] = []
        # (text, is a field): a field is written as is, text has its % doubled when there are arguments.
        bodies: list[tuple[Part, list[tuple[str, bool]]]] = []
        for part in self.parts if "\n" in joiner else _one_literal(self.parts):
            chunks: list[tuple[str, bool]] = []
            for piece in part.pieces:
                if isinstance(piece, Text):
                    chunks.append((_unescape(piece.raw, piece.braces_escaped), False))
                    continue
                kind = {"r": "r", "a": "a"}.get(piece.conversion or "", "s")
                if piece.spec and not _PRINTF_SPEC.match(piece.spec):
                    # `{n:>10}`: no printf equivalent; format() gives the same text for %s.
                    if piece.conversion or '"' in piece.spec or "\\" in piece.spec:
                        return None
                    chunks.append(("%s", True))
                    arguments.append(f'format({piece.source}, "{piece.spec}")')
                    continue
                chunks.append(("%" + (piece.spec or "") + (kind if not (piece.spec and piece.spec[-1].isalpha()) else ""), True))
                arguments.append(piece.source)
            bodies.append((part, chunks))
        rendered = []
        for part, chunks in bodies:
            # logging applies `%` only when there are arguments: only then a literal % doubles.
            text = "".join(c if field else (c.replace("%", "%%") if arguments else c) for c, field in chunks)
            rendered.append(f"{part.prefix}{part.quote}{text}{part.quote}")
        return joiner.join(rendered), arguments


def _one_literal(parts: list[Part]) -> list[Part]:
    """The literals of a message written on one line as one literal (ruff ISC001: `"a" "b"` side
    by side on a line is implicit concatenation a reader misses), when they share quote and
    prefix; else as they are."""
    if len(parts) < 2 or any(part.quote != parts[0].quote or part.prefix != parts[0].prefix for part in parts):
        return parts
    return [Part(parts[0].prefix, parts[0].quote, [piece for part in parts for piece in part.pieces])]


def _requoted(expr: str, quote: str) -> str:
    """`expr` with its string literals in the other quote where it has none of that one."""
    other = "'" if quote == '"' else '"'
    return expr.replace(quote, other) if quote in expr and other not in expr else expr


def append_sentence(pieces: list[Piece], sentence: list[Piece]) -> None:
    """`pieces` followed by `sentence` as the next sentence ("Rate limit reached. Wait a minute."):
    a full stop between them where the first does not end in one, the second capitalised."""
    last = next((p for p in reversed(pieces) if not (isinstance(p, Text) and not p.raw)), None)
    ends = isinstance(last, Text) and last.raw.rstrip().endswith((".", "!", "?"))
    if sentence and isinstance(sentence[0], Text):
        sentence[0] = Text(capitalized(sentence[0].raw), sentence[0].braces_escaped)
    pieces.extend([Text(" " if ends else ". ", True), *sentence])


def capitalized(text: str) -> str:
    """`note 3 not found` -> `Note 3 not found`, once a leading label is gone; a first word that
    is an identifier (`sort_by must be ...`, `iPhone`, `x2`) or no word stays as written."""
    word = re.split(r"[\s,.;:!?)'\"]", text, maxsplit=1)[0]
    if word.isalpha() and word.islower():
        return text[0].upper() + text[1:]
    return text


def _collect(expr: cst.BaseExpression, parts: list[Part], code: Callable[[cst.CSTNode], str]) -> bool:
    if type(expr) is cst.BinaryOperation and type(expr.operator) is cst.Add:
        return _collect_sum(expr, parts, code)
    if type(expr) is cst.Call and type(expr.func) is cst.Attribute and expr.func.attr.value == "format":
        return _collect_format(expr, parts, code)
    if type(expr) is cst.ConcatenatedString:
        return _collect(expr.left, parts, code) and _collect(expr.right, parts, code)
    if type(expr) is cst.SimpleString:
        prefix = expr.prefix
        if "b" in prefix.lower():
            return False
        parts.append(Part(prefix, expr.quote, [Text(expr.raw_value, False)]))
        return True
    if type(expr) is cst.FormattedString:
        prefix = expr.prefix.replace("f", "").replace("F", "")
        if "b" in prefix.lower():
            return False
        part = Part(prefix, expr.end, [])
        for piece in expr.parts:
            if type(piece) is cst.FormattedStringText:
                part.pieces.append(Text(piece.value, True))
                continue
            if piece.equal is not None:
                return False  # `{x=}` prints its own source: no %s equivalent
            spec = None
            if piece.format_spec is not None:
                if not all(type(s) is cst.FormattedStringText for s in piece.format_spec):
                    return False
                spec = "".join(s.value for s in piece.format_spec if type(s) is cst.FormattedStringText)
            source = code(piece.expression).strip()
            part.pieces.append(Placeholder(source, piece.conversion, spec, piece.expression))
        parts.append(part)
        return True
    return False


def _collect_sum(expr: cst.BinaryOperation, parts: list[Part], code: Callable[[cst.CSTNode], str]) -> bool:
    """`"Failed to read " + path + ": " + str(e)` as one literal: `f"Failed to read {path}: {e}"`
    before the exception is taken out (every operand of such a sum is a string)."""
    operands: list[cst.BaseExpression] = []
    stack: list[cst.BaseExpression] = [expr]
    while stack:
        node = stack.pop()
        if type(node) is cst.BinaryOperation and type(node.operator) is cst.Add and not node.lpar:
            stack.extend([node.right, node.left])
        else:
            operands.append(node)
    literals: list[Part] = []
    pieces: list[Piece] = []
    for operand in operands:
        if type(operand) in (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString):
            inner: list[Part] = []
            if not _collect(operand, inner, code):
                return False
            literals.extend(inner)
            pieces.extend(piece for part in inner for piece in part.pieces)
        else:
            value = operand
            # `str(x)` in a sum is there to make x a string: the f-string does that.
            if type(value) is cst.Call and type(value.func) is cst.Name and value.func.value == "str" and len(value.args) == 1:
                value = value.args[0].value
            pieces.append(Placeholder(code(value).strip(), None, None, operand))
    if not literals or len({(p.prefix.lower(), p.quote) for p in literals}) != 1 or len(literals[0].quote) != 1:
        return False  # mixed quotes or prefixes: not one literal without re-escaping
    quote = literals[0].quote
    moved = [p for p in pieces if isinstance(p, Placeholder) and any(p.node is o for o in operands)]
    if any(quote in p.source or "\\" in p.source or "\n" in p.source or "#" in p.source for p in moved):
        return False  # inside an f-string before Python 3.12 these do not parse
    parts.append(Part(literals[0].prefix, literals[0].quote, pieces))
    return True


def _collect_format(call: cst.Call, parts: list[Part], code: Callable[[cst.CSTNode], str]) -> bool:
    """`"Failed to read {}: {err}".format(path, err=e)` as `f"Failed to read {path}: {e}"`, its
    positional and named arguments in their fields."""
    template = call.func.value if type(call.func) is cst.Attribute else None
    if type(template) is not cst.SimpleString or "b" in template.prefix.lower() or len(template.quote) != 1:
        return False
    if any(a.star for a in call.args):
        return False
    positional = [a.value for a in call.args if a.keyword is None]
    named = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    pieces: list[Piece] = []
    automatic = 0
    try:
        fields = list(string.Formatter().parse(template.raw_value))
    except ValueError:
        return False
    for literal, placeholder, spec, conversion in fields:
        if literal:
            pieces.append(Text(literal, False))
        if placeholder is None:
            continue
        if placeholder == "":
            placeholder, automatic = str(automatic), automatic + 1
        value = positional[int(placeholder)] if placeholder.isdigit() and int(placeholder) < len(positional) else named.get(placeholder)
        if value is None or (spec and "{" in spec):
            return False  # `{0.name}`, `{x[0]}`, a missing argument, a nested field
        source = code(value).strip()
        if template.quote in source or "\\" in source or "\n" in source:
            return False
        pieces.append(Placeholder(source, conversion, spec or None, value))
    parts.append(Part(template.prefix, template.quote, pieces))
    return True


def _literals(expr: cst.BaseExpression) -> list[cst.BaseExpression]:
    if type(expr) is cst.ConcatenatedString:
        return _literals(expr.left) + _literals(expr.right)
    return [expr]


def _text_before(flat: list[tuple[Part, Piece]], index: int) -> Text | None:
    """The text right before a placeholder in the same literal, if any."""
    part = flat[index][0]
    if index > 0 and flat[index - 1][0] is part and isinstance(flat[index - 1][1], Text):
        return flat[index - 1][1]  # type: ignore[return-value]
    return None


def _text_after(flat: list[tuple[Part, Piece]], index: int) -> Text | None:
    part = flat[index][0]
    if index + 1 < len(flat) and flat[index + 1][0] is part and isinstance(flat[index + 1][1], Text):
        return flat[index + 1][1]  # type: ignore[return-value]
    return None


def _ends_a_sentence(preceding: list[tuple[Part, Piece]]) -> bool:
    """Whether the message's words before a removed placeholder end a sentence (or there are
    none): then a full stop right after it would stand alone (`credentials. . Run`)."""
    words = "".join(piece.raw for _, piece in preceding if isinstance(piece, Text)).rstrip()
    return not words or words.endswith(_SENTENCE_ENDS)


def _trim_around(before: Text | None, after: Text | None) -> None:
    """`load failed: {e}` -> `load failed`; `page ({e})` -> `page`; `...; got error: {e}` -> `...`."""
    if before is None:
        if after is not None:
            after.raw = _LEADING_SEPARATORS.sub("", after.raw)
        return
    text = _SEPARATORS.sub("", before.raw)
    labelled = len(text) < len(before.raw.rstrip(" ")) or before.raw.rstrip(" ").endswith((":", "="))
    if labelled or not text.strip():
        text = _SEPARATORS.sub("", _DANGLING_LABEL.sub("", text))
    if after is not None and text and text[-1] in _OPENERS and after.raw.startswith(_OPENERS[text[-1]]):
        text = _SEPARATORS.sub("", text[:-1])
        after.raw = after.raw[1:]
    if after is not None and after.raw and after.raw[0] not in " .,;:!?)]}\\" and text:
        text += " "  # `Error {e} occurred` -> `Error occurred`
    before.raw = text


def _escape(raw: str, braces_escaped: bool) -> str:
    return raw if braces_escaped else raw.replace("{", "{{").replace("}", "}}")


def _unescape(raw: str, braces_escaped: bool) -> str:
    return raw.replace("{{", "{").replace("}}", "}") if braces_escaped else raw


def _placeholder_code(piece: Placeholder) -> str:
    conversion = f"!{piece.conversion}" if piece.conversion else ""
    spec = f":{piece.spec}" if piece.spec else ""
    # A dict literal right after `{` would read as `{{`: keep them apart.
    source = f" {piece.source}" if piece.source.startswith("{") else piece.source
    return "{" + source + conversion + spec + "}"
