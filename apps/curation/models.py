"""No models here. The module exists because Django sends post_migrate only to apps that have a
models module, and this app's post_migrate handler (see apps.py) keeps the Curators group in sync
after every migrate and every test-database flush."""
