"""DealRoom-Exact: synthetic deal rooms from real filings, decks with planted traps, labels by construction.

``python -m benchmarks.dealroom [--seed N] [--decks K] [--out DIR]`` prints the JSON report.
"""
