/// The inspector's page: one self-contained HTML document (styles and script inline, no
/// network access but the inspector's own API), served at `/`.
enum InspectorPage {
  static let bytes = Array(html.utf8)

  static let html = """
    <!doctype html><title>Inspector</title>
    """
}
