"""The compiled engine against its sources, in one process (games.engine.native)."""

from __future__ import annotations

import warnings

from games.engine import compiled, native


def require_both_engines() -> bool:
    """Whether the compiled engine runs beside the interpreted one (``False``: interpreted only).

    Fails when nothing compiled was loaded, unless ``YUKON_COMPILE=0`` asks for the
    interpreted engine alone: a missing build never passes unnoticed.
    """
    if native.switched_off():
        assert not compiled(), "YUKON_COMPILE=0, yet the compiled engine is loaded"
        warnings.warn(
            "YUKON_COMPILE=0: the compiled engine is not built; "
            "only the interpreted engine was checked",
            stacklevel=2,
        )
        return False
    assert compiled(), (
        f"the compiled engine is not loaded ({native.status()}): install a C compiler "
        "(apt-get install -y gcc) and run `make install`, or set YUKON_COMPILE=0 to test "
        "the interpreted engine alone"
    )
    return True
