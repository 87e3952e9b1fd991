"""Layer 6, views: what people look at (boards and games in the terminal, SVG, the HTML page).

Imports the layers below it (``base`` to ``pdnfile``); never the batch, database or CLI layers.
"""
