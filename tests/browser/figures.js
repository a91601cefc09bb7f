// Every figure of a page, folds opened: whether it has a caption, how far
// the page shrinks it (displayed width over its pixel width), and, for an
// interactive figure, whether moving each of its sliders changes an image.
() => {
    for (const fold of document.querySelectorAll('details')) {
        fold.open = true;
    }
    for (const hidden of document.querySelectorAll('.toggle-hidden')) {
        hidden.classList.remove('toggle-hidden');
    }
    const article = document.querySelector('article') || document.body;
    const interactive = [...article.querySelectorAll(
        'figure.svmbook-interactive')];
    const images = [...article.querySelectorAll('img')]
        .filter(img => !img.closest('figure.svmbook-interactive'));
    const shown = images.map(img => {
        const figure = img.closest('figure');
        const caption = figure && figure.querySelector('figcaption');
        return {
            id: figure ? figure.id : '',
            captioned: !!(caption && caption.textContent.trim()),
            scale: img.naturalWidth
                ? img.getBoundingClientRect().width / img.naturalWidth : 1,
            text: (caption ? caption.textContent : img.src)
                .trim().slice(0, 60),
        };
    });
    const moving = interactive.map(figure => {
        const sources = () => [...figure.querySelectorAll('img')]
            .map(img => img.src).join('|');
        const sliders = [...figure.querySelectorAll('input[type=range]')];
        const responds = sliders.map(slider => {
            const before = sources();
            const low = Number(slider.min || 0);
            const high = Number(slider.max || 100);
            slider.value = Number(slider.value) === high ? low : high;
            slider.dispatchEvent(new Event('input', {bubbles: true}));
            slider.dispatchEvent(new Event('change', {bubbles: true}));
            return sources() !== before;
        });
        const caption = figure.querySelector('figcaption');
        return {
            id: figure.id,
            captioned: !!(caption && caption.textContent.trim()),
            sliders: sliders.length,
            responds: responds.length > 0 && responds.every(Boolean),
        };
    });
    return {static: shown, interactive: moving};
}
