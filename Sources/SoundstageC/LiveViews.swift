import CSoundstage
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import Soundstage
import SoundstageLiveView

@c @implementation
public func ss_device_start_live_view(_ device: OpaquePointer?, _ port: Int32, _ url: UnsafeMutablePointer<CChar>?,
                                      _ urlSize: Int) -> ss_result {
    capi {
        let url = try require(url)
        guard (0...65_535).contains(port) else { throw CAPIError(SS_ERROR_OUT_OF_RANGE, "port \(port) is not in 0...65535") }
        try withDevice(device) { c in
            // The URL's length is known before the view starts: the scheme, address, port and a 64-digit token.
            let longest = "http://127.0.0.1:65535/?token=".utf8.count + 64
            guard urlSize > longest else {
                throw CAPIError(SS_ERROR_BUFFER_TOO_SMALL, "the live view's URL needs up to \(longest + 1) bytes; url_size is \(urlSize)")
            }
            try c.liveView.withLockedValue { running in
                guard running == nil else { throw CAPIError(SS_ERROR_INVALID_STATE, "this device has a live view already: \(running!.url)") }
                let view = try c.device.startLiveView(port: Int(port))
                running = view
                let bytes = Array(view.url.utf8)
                bytes.withUnsafeBufferPointer { source in
                    UnsafeMutableRawPointer(url).copyMemory(from: source.baseAddress!, byteCount: bytes.count)
                }
                url[bytes.count] = 0
            }
        }
    }
}

@c @implementation
public func ss_device_stop_live_view(_ device: OpaquePointer?) -> ss_result {
    capi { try withDevice(device) { $0.stopLiveView() } }
}
