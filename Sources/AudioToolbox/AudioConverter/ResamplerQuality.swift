import SoundFile

// Audio Converter Services' sample-rate converter settings, as SoundFile's resampler designs.

extension ResamplerDesign {
    /// The design for a `kAudioConverterSampleRateConverterQuality` value and a complexity:
    /// linear interpolation at the minimum quality and for the Linear complexity.
    static func forQuality(_ quality: UInt32, complexity: UInt32) -> ResamplerDesign {
        if complexity == kAudioConverterSampleRateConverterComplexity_Linear || quality < kAudioConverterQuality_Low {
            return ResamplerDesign(zeroCrossings: 1, attenuation: 0, linear: true)
        }
        var design: ResamplerDesign
        switch quality {
        case ..<kAudioConverterQuality_Medium: design = ResamplerDesign(zeroCrossings: 8, attenuation: 60, linear: false)
        case ..<kAudioConverterQuality_High: design = ResamplerDesign(zeroCrossings: 24, attenuation: 80, linear: false)
        case ..<kAudioConverterQuality_Max: design = ResamplerDesign(zeroCrossings: 48, attenuation: 100, linear: false)
        default: design = ResamplerDesign(zeroCrossings: 96, attenuation: 120, linear: false)
        }
        if complexity == kAudioConverterSampleRateConverterComplexity_Mastering {
            design = ResamplerDesign(zeroCrossings: design.zeroCrossings * 2, attenuation: design.attenuation + 20, linear: false)
        }
        return design
    }
}

extension Resampler.Priming {
    /// A `kConverterPrimeMethod` value and its leading frames.
    init(method: UInt32, leadingFrames: Int?) {
        switch method {
        case kConverterPrimeMethod_None: self = .none
        case kConverterPrimeMethod_Pre: self = .pre(leadingFrames: leadingFrames)
        default: self = .normal
        }
    }
}
