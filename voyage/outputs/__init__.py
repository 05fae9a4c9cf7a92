"""What people read and see: Markdown, HTML, JSON and CSV logs, pictures, cards,
journals, the Datasette browser.

Imports the layers below: base ... actions.
"""
