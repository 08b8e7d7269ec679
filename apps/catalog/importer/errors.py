"""The importer's one domain error, carrying a message fit to show a curator."""


class CatalogImportError(Exception):
    """The input cannot be imported; ``str(error)`` says why in plain words."""
