// Run in a page of the book after it loaded: wait for MathJax, then report
// what a reader would see (the browser test turns each list into a check).
async () => {
    const startup = window.MathJax && MathJax.startup;
    if (startup && startup.promise) { await startup.promise; }
    const clip = (text) => text.trim().slice(0, 80);
    const math = [...document.querySelectorAll('.math')];
    const outsideCode = (el) =>
        !el.closest('pre, code, script, style, mjx-container, .highlight');
    const texInText = /\\(begin\{|frac|alpha|sum_)|\$\$/;
    const rawLabel = /\(eq-[A-Za-z0-9-]+\)/;
    const rawTex = [];
    const rawLabels = [];
    const walker = document.createTreeWalker(document.body,
                                             NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode;
        if (!node.parentElement || !outsideCode(node.parentElement)) {
            continue;
        }
        if (texInText.test(node.textContent)) {
            rawTex.push(clip(node.textContent));
        }
        if (rawLabel.test(node.textContent)) {
            rawLabels.push(clip(node.textContent));
        }
    }
    const videos = [];
    for (const video of document.querySelectorAll('video')) {
        video.muted = true;
        const before = video.currentTime;
        try { await video.play(); } catch (error) {
            videos.push(video.currentSrc + ': ' + error);
            continue;
        }
        await new Promise(resolve => setTimeout(resolve, 500));
        if (!(video.currentTime > before)) {
            videos.push(video.currentSrc + ': does not advance');
        }
    }
    const containers = [...document.querySelectorAll('mjx-container')];
    const backslash = String.fromCharCode(92);
    const displayed = [
        ...document.querySelectorAll('mjx-container[display="true"]')];
    const images = [...document.images];
    return {
        n_math: math.length,
        untypeset: math.filter(m => !m.querySelector('mjx-container'))
            .map(m => clip(m.textContent)),
        math_errors: [...document.querySelectorAll('mjx-merror')]
            .map(e => clip(e.textContent)),
        stray_backslashes: containers
            .filter(m => m.textContent.includes(backslash))
            .map(m => clip(m.textContent)),
        control_characters: math
            .filter(m => /[\t\f\b\v]/.test(m.textContent))
            .map(m => clip(m.textContent)),
        too_wide: displayed.filter(m => m.scrollWidth > m.clientWidth + 1)
            .map(m => clip(m.textContent)),
        raw_tex: rawTex,
        raw_labels: rawLabels,
        n_images: images.length,
        broken_images: images.filter(i => !(i.complete && i.naturalWidth > 0))
            .map(i => i.src),
        n_videos: document.querySelectorAll('video').length,
        videos_not_playing: videos,
        unresolved: document.body.innerText.includes('??')
            ? ['"??" in the text'] : [],
    };
}
