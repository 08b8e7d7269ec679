// Checklist keyboard shortcuts, and what a failed tick says. j / k move focus to the next / previous checkbox.
// Space and Enter already tick the focused checkbox (it is a button).
document.addEventListener("keydown", (event) => {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key !== "j" && event.key !== "k") return;
  const target = event.target;
  if (target.closest("input, textarea, select, [contenteditable]")) return;
  const boxes = Array.from(document.querySelectorAll(".tick-box"));
  if (!boxes.length) return;
  const current = boxes.indexOf(document.activeElement);
  const step = event.key === "j" ? 1 : -1;
  const next = current === -1 ? (step === 1 ? 0 : boxes.length - 1) : Math.min(Math.max(current + step, 0), boxes.length - 1);
  boxes[next].focus();
  boxes[next].scrollIntoView({ block: "nearest" });
  event.preventDefault();
});

// A tick the server refused (a forged status) or could not
// reach: htmx swaps nothing for an error, so say what happened where the page's messages go.
// The server's own words when it sent plain text, else a general one (an HTML error page).
function showError(text) {
  let box = document.getElementById("htmx-error");
  if (!box) {
    box = document.createElement("div");
    box.id = "htmx-error";
    box.className = "container messages";
    box.setAttribute("role", "alert");
    document.getElementById("main").before(box);
  }
  const item = document.createElement("li");
  item.className = "message message--error";
  item.textContent = text;
  const list = document.createElement("ul");
  list.append(item);
  box.replaceChildren(list);
}
document.addEventListener("htmx:responseError", (event) => {
  const xhr = event.detail.xhr;
  const plain = (xhr.getResponseHeader("Content-Type") || "").startsWith("text/plain");
  showError(plain && xhr.responseText ? xhr.responseText : "That did not work, and nothing was changed. Reload the page and try again.");
});
document.addEventListener("htmx:sendError", () => showError("The server could not be reached, and nothing was changed. Try again."));

// Back and Forward show the learner's progress as it is now. A signed-in page (<body data-fresh-on-back>)
// that the browser brings back from its back/forward cache, or from its HTTP cache without asking the
// server, is loaded again: a tick made since on another page would not be on it. (htmx keeps no
// snapshots of its own: historyCacheSize is 0 in base.html, so its history entries reload too.)
window.addEventListener("pageshow", (event) => {
  if (!document.body.hasAttribute("data-fresh-on-back")) return;
  const navigation = performance.getEntriesByType("navigation")[0];
  const fromHttpCache = navigation && navigation.type === "back_forward" && navigation.transferSize === 0;
  if (event.persisted || fromHttpCache) window.location.reload();
});
