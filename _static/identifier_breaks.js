/* The notation appendix's identifiers are long words in a narrow column: let a line break
   after an underscore or a dot of an identifier (dual_coordinate_<wbr>descent) rather than
   in the middle of a word. */
document.addEventListener("DOMContentLoaded", () => {
  for (const word of document.querySelectorAll("div.notation table code span.pre")) {
    const text = word.textContent;
    if (!/[_.]/.test(text)) continue;
    word.textContent = "";
    for (const piece of text.split(/(?<=[_.])/)) {
      word.append(piece, document.createElement("wbr"));
    }
  }
});
