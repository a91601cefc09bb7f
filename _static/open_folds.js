/* A link may point into a folded box: a "Going deeper" or "Where the notes go wrong" dropdown,
   a folded solution or code cell. The browser would scroll to an invisible target and show an
   empty box. Open every fold around the target first, then bring the target into view. */
(() => {
  const unfold = (target) => {
    for (let box = target; box; box = box.parentElement) {
      if (box.tagName === "DETAILS") box.open = true;
      if (box.classList && box.classList.contains("toggle-hidden")) {
        const button = box.querySelector(":scope > .admonition-title .toggle-button");
        if (button && typeof toggleHidden === "function") toggleHidden(button);
        else box.classList.remove("toggle-hidden");
      }
    }
  };
  const reveal = (hash) => {
    if (!hash || hash.length < 2) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!target) return;
    const folded = target.closest("details:not([open]), .toggle-hidden");
    if (!folded) return;
    unfold(target);
    requestAnimationFrame(() => target.scrollIntoView({ block: "start" }));
  };
  // After the toggle buttons exist (sphinx-togglebutton adds them when the page is ready).
  window.addEventListener("load", () => reveal(window.location.hash));
  window.addEventListener("hashchange", () => reveal(window.location.hash));
  // A click on a link to the anchor already in the address changes no hash: handle it too.
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a[href*='#']");
    if (!link) return;
    const url = new URL(link.href, window.location.href);
    if (url.pathname === window.location.pathname && url.hash === window.location.hash) {
      reveal(url.hash);
    }
  });
})();
