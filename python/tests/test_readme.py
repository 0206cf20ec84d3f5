"""The README's board examples run as written, and every line whose comment begins with a
Python value gives that value."""

import ast
import os

import pytest

import emilia

README = os.path.join(os.path.dirname(__file__), "..", "README.md")


def python_block(heading):
    """The first ```python block after `heading` in the README."""
    if not os.path.exists(README):
        pytest.skip("python/README.md is not beside the tests (an installed copy?)")
    with open(README, encoding="utf-8") as readme:
        text = readme.read()
    after = text[text.index(heading) :]
    start = after.index("```python\n") + len("```python\n")
    return after[start : after.index("```", start)]


def claimed_value(comment):
    """The Python value a comment begins with (up to a `;`), or None when it is prose."""
    try:
        return True, ast.literal_eval(comment.split(";")[0].strip())
    except (ValueError, SyntaxError):
        return False, None


def test_the_board_examples_give_what_their_comments_say():
    # `rows` is the reader's own array: here the start position's.
    names = {"rows": emilia.Board(8).to_array()}
    checked = 0
    for line in python_block("## Boards").splitlines():
        code, _, comment = line.partition("  # ")
        claims, value = claimed_value(comment)
        if claims:
            assert eval(code, names) == value, line
            checked += 1
        else:
            exec(code, names)
    assert checked >= 6
