"""Sphinx extension for the book: each inline script only once per page.

sphinx-thebe 0.3.1 registers its inline configuration script (``const
THEBE_JS_URL = ...``) both with the application and with the HTML builder
(once with the file name None, once with ""), so under Sphinx 7 every page
declared the same constants twice and the browser reported "Identifier
'THEBE_JS_URL' has already been declared". Identical inline scripts are
dropped here before the page is written.
"""


def drop_repeated_scripts(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique = set(), []
    for script in scripts:
        attributes = getattr(script, "attributes", {}) or {}
        filename = (
            getattr(script, "filename", script) or ""
        )  # the two copies differ: None and ""
        key = (
            str(filename),
            tuple(sorted((k, str(v)) for k, v in attributes.items())),
        )
        if key in seen:
            continue
        seen.add(key)
        unique.append(script)
    context["script_files"] = unique


def setup(app):
    app.connect("html-page-context", drop_repeated_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
