/* Search results show an excerpt of each page's text. Sphinx takes it from the page's HTML
   before MathJax has typeset anything, so a formula would read as raw TeX ("\(\alpha_i\)").
   The excerpt leaves each formula out instead, marked by an ellipsis. */
document.addEventListener("DOMContentLoaded", () => {
  if (typeof Search === "undefined" || !Search.htmlToText) return;
  const pageText = Search.htmlToText;
  Search.htmlToText = (htmlString, anchor) => {
    const page = new DOMParser().parseFromString(htmlString, "text/html");
    page.querySelectorAll(".math").forEach((formula) => formula.replaceWith(" … "));
    return pageText(page.documentElement.outerHTML, anchor);
  };
});
