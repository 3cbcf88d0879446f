# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_rhashtable authors

"""Sphinx configuration of the rte_rhashtable guides.

doc/guides/meson.build passes the version (-D version=...); the build runs
with -W, so every warning is an error.
"""

import os
import sys

project = 'rte_rhashtable'
copyright = '2026, The rte_rhashtable authors'
author = 'The rte_rhashtable authors'
version = release = 'unknown'

# _ext/md_tables.py: tables of the generated benchmark report (doc/perf/).
# No __pycache__ in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '_ext'))

extensions = ['sphinx.ext.graphviz', 'md_tables']

master_doc = 'index'
source_suffix = '.rst'
exclude_patterns = ['**/*.rst.inc', '_build']
highlight_language = 'c'
numfig = True
numfig_format = {'figure': 'Figure %s', 'table': 'Table %s',
                 'code-block': 'Listing %s'}

graphviz_output_format = 'svg'

# As DPDK's guides: the Read the Docs theme when installed
# (python3-sphinx-rtd-theme), Sphinx's own otherwise.
try:
    import sphinx_rtd_theme  # noqa: F401
    html_theme = 'sphinx_rtd_theme'
except ImportError:
    html_theme = 'classic'
html_title = 'rte_rhashtable documentation'
html_show_sourcelink = False
html_last_updated_fmt = None
html_static_path = ['_static']
html_css_files = ['css/custom.css']
