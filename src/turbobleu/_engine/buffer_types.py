"""The NumPy buffer types of the engine's signatures, for annotations only.

The pure-Python twins annotate their parameters with these, and most compiled modules' stubs
(``.pyi``) re-export the twins' functions, so that each signature is written once; the compiled
functions accept any C-contiguous buffer of the same item type. mypy.stubtest (tests/typing)
passes over re-exported names, so their check is tests/test_layout.py (each compiled function
has its twin's parameters, kinds and defaults) and tests/test_stub_reexports.py (a stub
re-exports exactly its twin's ``__all__``). Import this module only under ``TYPE_CHECKING``:
``numpy.typing`` costs time at import.
"""

import numpy as np
import numpy.typing as npt

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
