// A pending sync whose fetch job is still running reloads its page every few seconds until the
// job is done (without JavaScript the page has a "Check again" link instead).
const fetching = document.querySelector('.pending-sync[data-state="fetching"]');
if (fetching) {
  setTimeout(() => window.location.reload(), 3000);
}
