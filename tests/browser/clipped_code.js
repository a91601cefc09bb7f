// Open every fold (hidden cells, and the dropdowns of toggled content such
// as exercise solutions) and list the code and output blocks wider than
// their box, and the tables wider than the text column: a reader would
// have to scroll sideways.
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
    return {
        n_blocks: blocks.length,
        clipped: blocks.filter(b => b.scrollWidth > b.clientWidth + 1)
            .map(b => (b.textContent.split('\n')
                .find(line => line.length > 60) || b.textContent)
                .slice(0, 80))
            .concat(tables.map(t => 'table: '
                + t.textContent.trim().slice(0, 70))),
    };
}
