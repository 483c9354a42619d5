"""Float recipes of the mirrored libraries: statistics rows -> scores."""
