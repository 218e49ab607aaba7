import ReactorKit
