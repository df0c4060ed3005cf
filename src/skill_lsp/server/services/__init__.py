"""What feature handlers call into: syncing state with disk and buffers, publishing, building edits.

Imports run one way: ``features`` -> ``services`` -> ``state`` -> ``engine``. A
feature never imports another feature.
"""
