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

// A tick on its way, and what a failed one says. While a tick's request is out its row is
// aria-busy (htmx puts its request class on the button; app.css draws both). A tick the server
// refused (a forged status, a note too long) or could not reach swaps nothing: the error is said
// on the tick's own row, where the learner is looking; other requests say it where the page's
// messages go. The server's own words when it sent plain text, else a general one.
const ROW = "li, .my-progress";

function rowOf(elt) {
  return elt instanceof Element && elt.closest(".tick, #my-progress") ? elt.closest(ROW) : null;
}

function showError(text, elt) {
  const row = rowOf(elt);
  if (row) {
    let note = row.querySelector(":scope .row-error");
    if (!note) {
      note = document.createElement("p");
      note.className = "row-error";
      note.setAttribute("role", "alert");
      const body = row.querySelector(".row__body, .row-body");
      const buttons = row.querySelector(".status-buttons");
      if (body) body.prepend(note);
      else if (buttons) buttons.after(note);
      else row.append(note);
    }
    note.textContent = text;
    note.scrollIntoView({ block: "nearest" });
    return;
  }
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
const busyRows = new WeakMap(); // a request (its XMLHttpRequest) -> the row it is for
document.addEventListener("htmx:beforeRequest", (event) => {
  const row = rowOf(event.detail.elt);
  if (!row) return;
  busyRows.set(event.detail.xhr, row);
  row.setAttribute("aria-busy", "true");
  const old = row.querySelector(".row-error");
  if (old) old.remove();
});
function notBusy(event) {
  const row = busyRows.get(event.detail.xhr);
  if (row) row.removeAttribute("aria-busy");
}
// Before the swap (it replaces the tick that sent the request), and after one that swapped nothing.
document.addEventListener("htmx:beforeSwap", notBusy);
// A tick can take its row away (a status filter that no longer keeps it): focus, which was on
// the row's checkbox, goes on to the next row's instead of falling back to the page's start.
document.addEventListener("htmx:beforeSwap", (event) => {
  const row = busyRows.get(event.detail.xhr);
  if (!row || !row.contains(document.activeElement)) return;
  const boxes = Array.from(document.querySelectorAll(".tick-box"));
  const after = boxes.filter((box) => row.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING && !row.contains(box));
  const before = boxes.filter((box) => row.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_PRECEDING).reverse();
  setTimeout(() => { // the swap is done by now
    if (row.isConnected) return;
    const next = [...after, ...before].find((box) => box.isConnected);
    if (next) next.focus();
  }, 0);
});
document.addEventListener("htmx:afterRequest", notBusy);
// The page's language: base.html gives the words on <body data-error-…> (no JavaScript catalog, CSP stays strict).
function message(name, fallback) {
  return document.body.dataset[name] || fallback;
}
document.addEventListener("htmx:responseError", (event) => {
  const xhr = event.detail.xhr;
  const plain = (xhr.getResponseHeader("Content-Type") || "").startsWith("text/plain");
  showError(plain && xhr.responseText ? xhr.responseText : message("errorFailed", "That did not work, and nothing was changed. Reload the page and try again."), event.detail.elt);
});
document.addEventListener("htmx:sendError", (event) => showError(message("errorOffline", "The server could not be reached, and nothing was changed. Try again."), event.detail.elt));

// Escape closes an open row menu (progress/includes/status_menu.html) and gives focus back to its toggle.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || !(event.target instanceof Element)) return;
  const menu = event.target.closest("details.tick-menu[open]");
  if (!menu) return;
  menu.open = false;
  menu.querySelector("summary").focus();
  event.preventDefault();
});

// The page's one row status menu (#status-menu, progress/includes/tick_form.html): opening a row's
// menu (progress/includes/status_menu.html) closes any other, moves it into that row and points its
// buttons at the row's resource (its checkbox's URL), slot and the statuses the row is not in. It
// goes back beside #tick-form before a swap replaces the row or when its row closes.
let statusButtons;
let addPathLink;
const statusMenuHome = (menu) => {
  menu.hidden = true;
  document.getElementById("tick-form").after(menu);
};
const statusMenuOpen = (details, menu) => {
  for (const other of document.querySelectorAll("details.tick-menu[open]")) if (other !== details) other.open = false;
  const tick = details.closest(".tick");
  const box = tick.querySelector(".tick-box");
  const status = [...tick.classList].find((name) => name.startsWith("tick--")).slice("tick--".length);
  statusButtons ??= [...menu.querySelectorAll("button")];
  for (const button of statusButtons) {
    button.setAttribute("formaction", box.getAttribute("formaction"));
    button.setAttribute("hx-post", box.getAttribute("hx-post"));
  }
  addPathLink ??= menu.querySelector("[data-add-path]");
  const extra = [];
  if (addPathLink) {
    // The row's resource uuid is in its checkbox's URL (/progress/<uuid>/).
    const uuid = (box.getAttribute("hx-post") || "").split("/").filter(Boolean).pop();
    addPathLink.href = `${addPathLink.pathname}?resource=${encodeURIComponent(uuid)}`;
    extra.push(addPathLink);
  }
  menu.replaceChildren(...statusButtons.filter((button) => button.dataset.shown !== status), ...extra);
  menu.setAttribute("hx-vals", JSON.stringify({ slot: tick.id.slice("tick-".length), menu: "1" }));
  menu.hidden = false;
  details.append(menu);
  htmx.process(menu);
};
// Filled before the <details> opens (a click, or Enter or Space on its toggle), so that Tab goes
// straight into it; a row the server sends back open is filled when it opens.
document.addEventListener("click", (event) => {
  const menu = document.getElementById("status-menu");
  const summary = event.target instanceof Element && event.target.closest("details.tick-menu > summary");
  if (menu && summary && !summary.parentElement.open) statusMenuOpen(summary.parentElement, menu);
}, true);
document.addEventListener("toggle", (event) => {
  const details = event.target;
  const menu = document.getElementById("status-menu");
  if (!menu || !(details instanceof HTMLDetailsElement) || !details.classList.contains("tick-menu")) return;
  if (details.open && !details.contains(menu)) statusMenuOpen(details, menu);
  else if (!details.open && details.contains(menu)) statusMenuHome(menu);
}, true);
const statusMenuOut = (event) => {
  const menu = document.getElementById("status-menu");
  if (menu && event.detail.target && event.detail.target.contains(menu)) statusMenuHome(menu);
};
document.addEventListener("htmx:beforeSwap", statusMenuOut);
// htmx keeps a swapped row's old classes until it settles: its status is read again then.
document.addEventListener("htmx:afterSettle", () => {
  const menu = document.getElementById("status-menu");
  const details = menu && menu.closest("details.tick-menu[open]");
  if (details) statusMenuOpen(details, menu);
});
document.addEventListener("htmx:oobBeforeSwap", statusMenuOut);

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
