"""The conformance kit: the checks every variant and bot plugin runs against itself.

The built-in variants run it too (``tests/test_conformance.py``), so a third-party variant
is held to exactly the standard of the built-ins: random-play invariants, legal actions that
match what the engine accepts, records that replay, views that hide what they must, strictly
validated options, and simulations that agree on every path.

```python
import pytest
from sixtysix.testing import ConformanceKit
from sixtysix_house import House

@pytest.mark.parametrize("check", ConformanceKit(House).checks(), ids=str)
def test_conformance(check):
    check()
```

Needs only the runtime dependencies (no pytest or hypothesis), so ``ConformanceKit(...).run()``
works from a script too.
"""

from sixtysix.testing.cli import invoke_cli, registry_with, using_registry
from sixtysix.testing.kit import BotKit, Check, ConformanceKit, builtin_variants, default_configs
from sixtysix.testing.play import ConformanceError

__all__ = [
    "BotKit",
    "Check",
    "ConformanceError",
    "ConformanceKit",
    "builtin_variants",
    "default_configs",
    "invoke_cli",
    "registry_with",
    "using_registry",
]
