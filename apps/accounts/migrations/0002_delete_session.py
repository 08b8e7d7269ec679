from django.db import migrations


class Migration(migrations.Migration):
    """Sessions are Django's own (django.contrib.sessions) again; signed-in users sign in once more."""

    dependencies = [("accounts", "0001_session")]

    operations = [migrations.DeleteModel(name="Session")]
