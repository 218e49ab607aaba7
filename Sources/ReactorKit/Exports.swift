@_exported import ReactorKitStreams
