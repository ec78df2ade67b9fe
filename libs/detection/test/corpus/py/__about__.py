# This file is dual licensed under the terms of the Apache License, Version
# 2.0, and the BSD License. See the LICENSE file in the root of this repository
# for complete details.


__all__ = [
    "__version__",
    "__author__",
    "__copyright__",
]

_