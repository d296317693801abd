"""No product function grows past cyclomatic complexity 20, measured with radon on every test run.

A function with more than twenty paths through it cannot be read, or tested
path by path, in one sitting; past that, it is split into steps that each say
what they do. The limit is radon's grade D (21 and up), the figure
``radon cc -s -n D companion hardware ui`` prints. Closures and methods are
measured on their own (radon does not add a closure's paths to the function
around it), so a long nested function is caught too.
"""

from __future__ import annotations

from pathlib import Path

from radon.complexity import add_inner_blocks, cc_visit
from radon.visitors import Function

ROOT = Path(__file__).resolve().parent.parent
#: The product packages: what ships (tests and benchmarks are not measured).
PRODUCT = ("companion", "hardware", "ui", "web")
#: The most paths one function may have (radon's grades A–C).
LIMIT = 20


def too_complex(source: str, where: str, limit: int = LIMIT) -> list[str]:
    """``where:line name complexity`` for each function, method or closure of ``source`` over ``limit``."""
    found = []
    for block in add_inner_blocks(cc_visit(source)):
        if isinstance(block, Function) and block.complexity > limit:
            name = f"{block.classname}.{block.name}" if block.classname else block.name
            found.append(f"{where}:{block.lineno} {name} {block.complexity}")
    return found


def test_no_product_function_is_above_the_limit():
    found: list[str] = []
    measured = 0
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            found += too_complex(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
            measured += 1
    assert measured > 100, "the product's modules were not found"
    assert not found, (f"cyclomatic complexity above {LIMIT} (radon); split these into named steps:\n"
                       + "\n".join(found))


def _branches(count: int, indent: str = "    ") -> str:
    """A body of ``count`` ``if`` statements: ``count + 1`` paths."""
    return "".join(f"{indent}if x == {i}:\n{indent}    return {i}\n" for i in range(count))


def test_the_check_names_functions_methods_and_closures_over_the_limit():
    source = (
        "def fine(x):\n" + _branches(LIMIT - 1)
        + "def over(x):\n" + _branches(LIMIT)
        + "class Board:\n    def draw(self, x):\n" + _branches(LIMIT, " " * 8)
        + "def outer(x):\n    def inner(x):\n" + _branches(LIMIT, " " * 8) + "    return inner\n"
    )
    found = too_complex(source, "m.py")
    assert sorted(line.split(" ", 1)[1] for line in found) == [
        f"Board.draw {LIMIT + 1}", f"outer.inner {LIMIT + 1}", f"over {LIMIT + 1}"]
    assert all(line.startswith("m.py:") for line in found)
