"""Capture rig: run pinned harness releases against a loopback recording endpoint."""
