// Checklist keyboard shortcuts: j / k move focus to the next / previous checkbox.
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
