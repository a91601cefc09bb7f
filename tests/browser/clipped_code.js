// Open every fold (hidden cells, and the dropdowns of toggled content such
// as exercise solutions) and list the code and output blocks wider than
// their box, the tables wider than the text column and the formulas wider
// than their table cell: a reader would have to scroll sideways or would
// miss what is cut off.
() => {
    for (const fold of document.querySelectorAll('details')) {
        fold.open = true;
    }
    for (const hidden of document.querySelectorAll('.toggle-hidden')) {
        hidden.classList.remove('toggle-hidden');
    }
    const blocks = [...document.querySelectorAll('pre')];
    // A table wider than the text column scrolls sideways in its container.
    const tables = [...document.querySelectorAll('article table')]
        .filter(t => t.parentElement.scrollWidth
            > t.parentElement.clientWidth + 1);
    // A formula or identifier wider than its table cell is cut off.
    const cut = [];
    for (const cell of document.querySelectorAll('article td')) {
        const right = cell.getBoundingClientRect().right;
        for (const item of cell.querySelectorAll('mjx-container, code')) {
            if (item.getBoundingClientRect().right > right + 1) {
                cut.push('cell: ' + item.textContent.slice(0, 70));
            }
        }
    }
    return {
        n_blocks: blocks.length,
        clipped: blocks.filter(b => b.scrollWidth > b.clientWidth + 1)
            .map(b => (b.textContent.split('\n')
                .find(line => line.length > 60) || b.textContent)
                .slice(0, 80))
            .concat(tables.map(t => 'table: '
                + t.textContent.trim().slice(0, 70)))
            .concat(cut),
    };
}
