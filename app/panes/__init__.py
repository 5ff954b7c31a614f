"""Panel/Bokeh views of `app.analysis` results: one module per pane. Each `render(...)`
returns a list of Panel objects for its pane's Column (rebuilt on every run)."""
