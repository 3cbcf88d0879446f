# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors

"""Show a table of a generated Markdown report in the guides.

devtools/run-bench.sh writes its results as Markdown (doc/perf/results.md,
machine.md). Rather than copying its numbers into the guides by hand, a page
names the report and the heading of the section whose first pipe table it
wants; the table is rendered as a list-table at build time, so the guides
follow each new run of the benchmark:

    .. md-table:: ../../perf/results.md
       :section: Headline ratios
       :caption: Headline ratios of the last run

The path is relative to the page. Sphinx rebuilds the page when the report
changes. A missing report, section or table is a build warning (an error
with -W), so a report that no longer has what a page shows does not go
unnoticed.
"""

import os
import re

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

# `code` and **bold** are the only inline Markdown the report uses.
INLINE = re.compile(r'(`[^`]+`|\*\*[^*]+\*\*)')
RST_SPECIAL = re.compile(r'([\\*_`|<>\[\]])')


def rst_escape(text):
    """Plain text, with every character that rst could read as markup escaped."""
    return RST_SPECIAL.sub(r'\\\1', text)


def md_inline_to_rst(cell):
    """Convert the inline Markdown of one table cell to rst."""
    out = []
    for part in INLINE.split(cell):
        if part.startswith('`') and part.endswith('`') and len(part) > 1:
            out.append('``%s``' % part[1:-1])
        elif part.startswith('**') and part.endswith('**') and len(part) > 4:
            out.append('**%s**' % rst_escape(part[2:-2]))
        else:
            out.append(rst_escape(part))
    return ''.join(out).strip()


def split_row(line):
    """'| a | b |' -> ['a', 'b']."""
    return [c.strip() for c in line.strip().strip('|').split('|')]


def section_table(lines, heading):
    """Rows of the first pipe table after the Markdown heading HEADING."""
    start = None
    for i, line in enumerate(lines):
        m = re.match(r'#+\s+(.*?)\s*$', line)
        if m and m.group(1) == heading:
            start = i + 1
            break
    if start is None:
        return None
    rows = []
    for line in lines[start:]:
        if line.startswith('#') and not rows:
            return None   # the next section started before any table
        if line.startswith('|'):
            rows.append(split_row(line))
        elif rows:
            break
    # drop the |---|---| separator line
    return [r for r in rows if not all(re.fullmatch(r':?-+:?', c) for c in r)]


class MdTable(SphinxDirective):
    """Render the first table of a section of a Markdown file."""

    required_arguments = 1
    has_content = False
    option_spec = {
        'section': directives.unchanged_required,
        'caption': directives.unchanged,
        'widths': directives.unchanged,
    }

    def warn(self, text):
        return [self.state.document.reporter.warning(text, line=self.lineno)]

    def run(self):
        relpath, abspath = self.env.relfn2path(self.arguments[0], self.env.docname)
        self.env.note_dependency(abspath)
        heading = self.options.get('section', '')
        try:
            with open(abspath, encoding='utf-8') as f:
                lines = f.read().splitlines()
        except OSError as e:
            return self.warn('md-table: cannot read %s: %s' % (relpath, e))
        rows = section_table(lines, heading)
        if not rows:
            return self.warn('md-table: no table under "%s" in %s' % (heading, relpath))
        ncols = max(len(r) for r in rows)
        header = any(rows[0])
        rst = ['.. list-table:: %s' % self.options.get('caption', ''),
               '   :header-rows: %d' % (1 if header else 0)]
        if 'widths' in self.options:
            rst.append('   :widths: %s' % self.options['widths'])
        rst.append('')
        for row in rows if header else rows[1:]:
            cells = row + [''] * (ncols - len(row))
            for j, cell in enumerate(cells):
                rst.append('   %s - %s' % ('*' if j == 0 else ' ', md_inline_to_rst(cell)))
        container = nodes.container()
        self.state.nested_parse(StringList(rst, source=abspath), self.content_offset,
                                container)
        return container.children


def setup(app):
    app.add_directive('md-table', MdTable)
    return {'version': '1', 'parallel_read_safe': True, 'parallel_write_safe': True}
