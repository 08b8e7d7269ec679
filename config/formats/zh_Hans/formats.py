"""Chinese numbers grouped by thousands, as Chinese pages commonly write them ("1,033"); the rest
is Django's."""

THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
