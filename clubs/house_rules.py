"""What a rule profile changes: counted against the engine's defaults (no form, no page)."""

from __future__ import annotations

from typing import Any

import engine


def changes_from_defaults(game_kind: str, overrides: dict[str, Any]) -> int:
    """How many rules (a table's entries one by one) ``overrides`` really set apart
    from the defaults; an override equal to the default changes nothing."""
    count = 0
    for key, rule in engine.house_rules(game_kind).items():
        if key not in overrides:
            continue
        value, default = overrides[key], rule.default
        if isinstance(default, dict) and isinstance(value, dict):
            count += sum(1 for entry, amount in value.items() if default.get(entry) != amount)
        elif isinstance(default, list) and isinstance(value, list):
            count += sorted(value) != sorted(default)
        else:
            count += value != default
    return count
