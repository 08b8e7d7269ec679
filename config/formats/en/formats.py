"""English dates as the interface has always written them: day, short month, year."""

DATE_FORMAT = "j M Y"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATE_FORMAT = "j M Y"
MONTH_DAY_FORMAT = "j F"
