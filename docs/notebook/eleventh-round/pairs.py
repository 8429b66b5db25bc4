"""Set two match reports on the same seed side by side, pair by pair (their common pairs only).

    python docs/notebook/eleventh-round/pairs.py docs/notebook/tenth-round/run-1.json docs/notebook/eleventh-round/oracle-hand.json

Each report's pair ``i`` is the same deals (the match seed's), so the
difference of A's game score and margin pair by pair measures what the
second player adds to the first, with the noise of the deals paired out.
"""

from __future__ import annotations

import json
import math
import sys


def main() -> None:
    one, two = (json.load(open(p)) for p in sys.argv[1:3])
    a = {p["pair"]: p for p in one["by_pair"]}
    b = {p["pair"]: p for p in two["by_pair"]}
    common = sorted(set(a) & set(b))
    n = len(common)
    for label, key in (("game score (of 2 a pair)", "a_score"), ("margin a pair", "margin")):
        d = [b[i][key] - a[i][key] for i in common]
        mean = sum(d) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else float("nan")
        se = sd / math.sqrt(n)
        print(f"{label}: {one['a']} {sum(a[i][key] for i in common) / n:.3f}, {two['a']} "
              f"{sum(b[i][key] for i in common) / n:.3f}; difference {mean:+.3f} "
              f"(95% CI {mean - 1.96 * se:+.3f} to {mean + 1.96 * se:+.3f}) over {n} common pairs")
    hands_a = sum(a[i]["hands"] for i in common)
    hands_b = sum(b[i]["hands"] for i in common)
    print(f"margin a hand over the common pairs: {sum(a[i]['margin'] for i in common) / hands_a:+.1f} "
          f"({hands_a} hands), {sum(b[i]['margin'] for i in common) / hands_b:+.1f} ({hands_b} hands)")
    won_a = sum(a[i]["a_score"] for i in common)
    won_b = sum(b[i]["a_score"] for i in common)
    print(f"games won over the common pairs: {won_a:g} and {won_b:g} of {2 * n}")


if __name__ == "__main__":
    main()
