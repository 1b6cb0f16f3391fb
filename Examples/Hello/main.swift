import Soundstage

// The desktop server (PulseAudio or PipeWire), else the sound card; Device.loopback() renders offline.
let device = try Device.openOutput(desktop: DesktopOutputOptions(applicationName: "Hello"))
let scene = try device.makeScene()
let bee = scene.makeSource(buffer: try device.buffer(file: "assets/sounds/bee.wav"))  // mono: placed in 3D
bee.isLooping = true
try bee.play()
for frame in 0..<240 {                                     // a game loop: 4 s at 60 frames a second
    bee.position = Vector3(Float(frame) / 30 - 4, 0, -1)   // 4 m left to 4 m right, 1 m ahead; no await
    try await Task.sleep(for: .milliseconds(16))
}
device.close()                                             // plays out the tail, frees everything made on it
