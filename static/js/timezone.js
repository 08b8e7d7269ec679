// The browser's time zone, for the days a learner's streak and heatmap count (apps/accounts/timezones.py):
// kept in the `tz` cookie, which the server reads on the next request.
(() => {
  let zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return;
  }
  // IANA names are letters, digits and _ / + -: cookie-safe as they are (the server does not decode).
  if (!zone || !/^[A-Za-z0-9_\/+-]+$/.test(zone)) return;
  if (document.cookie.split("; ").includes(`tz=${zone}`)) return;
  const secure = location.protocol === "https:" ? "; secure" : "";
  document.cookie = `tz=${zone}; path=/; max-age=31536000; samesite=lax${secure}`;
})();
