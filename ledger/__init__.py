"""The ledger: payouts, payments, settlement, standings, ratings and chart series.

The computing modules (``settlement``, ``standings``, ``ratings``, ``series``)
are pure Python with no Django import, so they can be tested and benchmarked
without a database; the app's models, services and tasks feed them plain
values and store what they return.
"""
