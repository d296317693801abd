"""The .po reader undoes exactly the C escapes gettext writes, and refuses every other backslash."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.i18n.po import PoError, parse_po

_WRITTEN = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r",
            "\a": "\\a", "\b": "\\b", "\f": "\\f", "\v": "\\v"}


def _quoted(text: str) -> str:
    """``text`` as msgfmt's tools write it in a .po file."""
    return '"' + "".join(_WRITTEN.get(ch, ch) for ch in text) + '"'


@given(st.text(alphabet=st.sampled_from(list('ab „”é{}\\"\n\t\r\a\b\f\v')), max_size=60))
def test_a_written_text_reads_back_as_it_was(text: str) -> None:
    entries = parse_po(f"msgid \"code\"\nmsgstr {_quoted(text)}\n")
    assert entries[0].msgstr == {0: text}


@pytest.mark.parametrize("literal", ['"a\\q"', '"a\\"', '"a"b"'])
def test_a_wrong_escape_or_a_bare_quote_is_refused(literal: str) -> None:
    with pytest.raises(PoError, match=r"^<po>:2: "):
        parse_po(f'msgid "code"\nmsgstr {literal}\n')
